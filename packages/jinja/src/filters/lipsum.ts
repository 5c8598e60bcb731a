import { Markup } from "../runtime/markup.js";
import { budget, chargeStep, outputExhausted } from "../runtime/render-budget.js";
import { fail } from "../runtime/template-error.js";

/**
 * Jinja's `lipsum(n=5, html=True, min=20, max=100)`: paragraphs of lorem ipsum drawn at random from Jinja's word
 * list, laid out as Jinja lays them out (capitalised sentences, commas and full stops, `<p>` paragraphs when
 * `html`). The words are random, in Python as here: only the shape can be compared.
 */

const WORDS =
  "a ac accumsan ad adipiscing aenean aliquam aliquet amet ante aptent arcu at auctor augue bibendum blandit class commodo condimentum congue consectetuer consequat conubia convallis cras cubilia cum curabitur curae cursus dapibus diam dictum dictumst dignissim dis dolor donec dui duis egestas eget eleifend elementum elit enim erat eros est et etiam eu euismod facilisi facilisis fames faucibus felis fermentum feugiat fringilla fusce gravida habitant habitasse hac hendrerit hymenaeos iaculis id imperdiet in inceptos integer interdum ipsum justo lacinia lacus laoreet lectus leo libero ligula litora lobortis lorem luctus maecenas magna magnis malesuada massa mattis mauris metus mi molestie mollis montes morbi mus nam nascetur natoque nec neque netus nibh nisi nisl non nonummy nostra nulla nullam nunc odio orci ornare parturient pede pellentesque penatibus per pharetra phasellus placerat platea porta porttitor posuere potenti praesent pretium primis proin pulvinar purus quam quis quisque rhoncus ridiculus risus rutrum sagittis sapien scelerisque sed sem semper senectus sit sociis sociosqu sodales sollicitudin suscipit suspendisse taciti tellus tempor tempus tincidunt torquent tortor tristique turpis ullamcorper ultrices ultricies urna ut varius vehicula vel velit venenatis vestibulum vitae vivamus viverra volutpat vulputate".split(
    " ",
  );

/** Python's `random.randrange(low, high)`, with its error for an empty range. */
function randrange(low: number, high: number): number {
  if (high <= low) fail("ValueError", `empty range for randrange() (${low}, ${high}, ${high - low})`);
  return low + Math.floor(Math.random() * (high - low));
}

/**
 * One `lipsum()` call.
 *
 * @example
 * lipsum({ n: 1, html: false, min: 20, max: 100 }); // "Lorem dolor sit … amet."
 */
export function lipsum(options: { n: number; html: boolean; min: number; max: number }): string | Markup {
  const result: string[] = [];
  let length = 0;
  for (let i = 0; i < options.n; i++) {
    let nextCapitalized = true;
    let lastComma = 0;
    let lastFullstop = 0;
    let last = "";
    const p: string[] = [];
    const count = randrange(options.min, options.max);
    for (let idx = 0; idx < count; idx++) {
      let word = "";
      for (;;) {
        word = WORDS[randrange(0, WORDS.length)] as string;
        if (word !== last) break;
      }
      last = word;
      if (nextCapitalized) {
        word = word[0]?.toUpperCase() + word.slice(1);
        nextCapitalized = false;
      }
      if (idx - randrange(3, 8) > lastComma) {
        lastComma = idx;
        lastFullstop += 2;
        word += ",";
      }
      if (idx - randrange(10, 20) > lastFullstop) {
        lastComma = lastFullstop = idx;
        word += ".";
        nextCapitalized = true;
      }
      p.push(word);
      chargeStep();
      length += word.length + 1;
      if (length > budget.maxOutputLength) outputExhausted();
    }
    let paragraph = p.join(" ");
    if (paragraph.endsWith(",")) paragraph = `${paragraph.slice(0, -1)}.`;
    else if (!paragraph.endsWith(".")) paragraph += ".";
    result.push(paragraph);
    chargeStep();
    length += 2;
    if (length > budget.maxOutputLength) outputExhausted();
  }
  if (!options.html) return result.join("\n\n");
  return new Markup(
    result
      .map(
        (x) =>
          `<p>${x.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&#34;").replace(/'/g, "&#39;")}</p>`,
      )
      .join("\n"),
  );
}
