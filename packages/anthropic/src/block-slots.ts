type Fields = Record<string, unknown>;

/** One content block of the answer as it came, and the blocks it becomes for the client. */
export interface BlockSlot {
  /** The block's `index` in the answer as it came. */
  readonly index: number;
  /** Its first block's index for the client, once every block before it knows how many it becomes. */
  offset: number | undefined;
  /** How many blocks it becomes, once known (`undefined`: it may still become more). */
  count: number | undefined;
  /** Frames of this block (and answer-wide frames after them) that wait for `offset`. */
  readonly waiting: SlotFrame[];
}

/** One event for the client: of a block's `sub`-th block, or of the whole answer (`slot` absent). */
export interface SlotFrame {
  slot?: BlockSlot;
  /** Which of the blocks its block becomes (0: the first). */
  sub?: number;
  /** The event's `type` and its data; the block index is set when the frame goes. */
  type: string;
  data?: Fields;
  /** The event's text as it came, sent as it is when its index is unchanged. */
  text?: string;
  /** Told the index the frame's block got, as the frame goes. */
  onSent?: (index: number) => void;
}

/** The text of one server-sent event. */
export const frameText = (type: string, data: Fields): string =>
  `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The block indexes a client sees once blocks become several (a call read from a text block, merged input split):
 * each block of the answer becomes `count` blocks, numbered after every block before it. A block whose count may still
 * grow (a text block being read, a `tool_use` block not yet decided) lets its own frames go, while the frames of the
 * blocks after it wait (with the answer-wide frames among them), so every `content_block_start` reaches the client in
 * index order, as the SDK's message accumulator needs. Each frame is queued and sent once.
 *
 * @example
 * const slots = new BlockSlots((text) => out.push(text));
 * const slot = slots.begin({ index: 0, count: undefined });
 * slots.send({ slot, sub: 0, type: "content_block_start", data: { type: "content_block_start", index: 0 } });
 */
export class BlockSlots {
  readonly #emit: (text: string) => void;
  readonly #order: BlockSlot[] = [];
  /** The first block whose offset is not known (`#order.length`: none). */
  #frontier = 0;
  /** The client index after the blocks up to the frontier. */
  #next = 0;

  constructor(emit: (text: string) => void) {
    this.#emit = emit;
  }

  /** A block began: `count` is how many blocks it becomes when known now. */
  begin(args: { index: number; count: number | undefined }): BlockSlot {
    const slot: BlockSlot = { index: args.index, offset: undefined, count: args.count, waiting: [] };
    this.#order.push(slot);
    this.#advance();
    return slot;
  }

  /** A block's count is known now: the blocks after it get their offsets and their frames go. */
  settle(args: { slot: BlockSlot; count: number }): void {
    if (args.slot.count !== undefined) return;
    args.slot.count = args.count;
    this.#advance();
  }

  /** Sends a frame now, or queues it behind the blocks that wait. */
  send(frame: SlotFrame): void {
    const slot = frame.slot;
    if (slot !== undefined && slot.offset !== undefined) {
      this.#go(frame);
      return;
    }
    // An answer-wide frame waits behind the last block that waits; one with no block waiting goes now.
    const behind = slot ?? this.#order[this.#order.length - 1];
    if (behind === undefined || behind.offset !== undefined) this.#go(frame);
    else behind.waiting.push(frame);
  }

  /** The answer ended: every block keeps the blocks it has now, and everything waiting goes. */
  end(countOf: (slot: BlockSlot) => number): void {
    for (let at = this.#frontier; at < this.#order.length; at++) {
      const slot = this.#order[at] as BlockSlot;
      if (slot.count === undefined) slot.count = countOf(slot);
    }
    this.#advance();
  }

  #advance(): void {
    while (this.#frontier < this.#order.length) {
      const slot = this.#order[this.#frontier] as BlockSlot;
      if (slot.offset === undefined) {
        slot.offset = this.#next;
        const waiting = slot.waiting.splice(0);
        for (const frame of waiting) this.#go(frame);
      }
      if (slot.count === undefined) return;
      this.#next = slot.offset + slot.count;
      this.#frontier++;
    }
  }

  #go(frame: SlotFrame): void {
    const { slot } = frame;
    if (slot === undefined || slot.offset === undefined) {
      this.#emit(frame.text ?? frameText(frame.type, frame.data ?? {}));
      return;
    }
    const index = slot.offset + (frame.sub ?? 0);
    const data = frame.data ?? {};
    if (frame.text !== undefined && data.index === index) this.#emit(frame.text);
    else this.#emit(frameText(frame.type, { ...data, index }));
    frame.onSent?.(index);
  }
}
