const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function pad(value: number, width: number, padding: string): string {
  return padding === "" ? String(value) : String(value).padStart(width, padding);
}

function dayOfYear(date: Date): number {
  const start = new Date(date.getFullYear(), 0, 1);
  const startUtc = Date.UTC(start.getFullYear(), 0, 1);
  const dateUtc = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((dateUtc - startUtc) / 86400000) + 1;
}

/**
 * Python's `datetime.strftime` in the C locale, on a date's local fields (transformers' `strftime_now` formats the
 * local time). Supports glibc's `%-d` (no padding) as Python on Linux does.
 *
 * @example
 * strftime(new Date(2026, 0, 2, 3, 4, 5), "%d %b %Y"); // "02 Jan 2026"
 */
export function strftime(date: Date, format: string): string {
  return format.replace(/%([-_0^#]?)([a-zA-Z%])/g, (whole, flag: string, directive: string) => {
    const padding = flag === "-" ? "" : flag === "_" ? " " : "0";
    const hours = date.getHours();
    switch (directive) {
      case "Y":
        return String(date.getFullYear());
      case "y":
        return pad(date.getFullYear() % 100, 2, padding);
      case "m":
        return pad(date.getMonth() + 1, 2, padding);
      case "d":
        return pad(date.getDate(), 2, padding);
      case "e":
        return pad(date.getDate(), 2, flag === "" ? " " : padding);
      case "H":
        return pad(hours, 2, padding);
      case "I":
        return pad(hours % 12 === 0 ? 12 : hours % 12, 2, padding);
      case "M":
        return pad(date.getMinutes(), 2, padding);
      case "S":
        return pad(date.getSeconds(), 2, padding);
      case "f":
        return String(date.getMilliseconds() * 1000).padStart(6, "0");
      case "p":
        return hours < 12 ? "AM" : "PM";
      case "j":
        return pad(dayOfYear(date), 3, padding);
      case "a":
        return (DAYS[date.getDay()] as string).slice(0, 3);
      case "A":
        return DAYS[date.getDay()] as string;
      case "b":
      case "h":
        return (MONTHS[date.getMonth()] as string).slice(0, 3);
      case "B":
        return MONTHS[date.getMonth()] as string;
      case "w":
        return String(date.getDay());
      case "u":
        return String(date.getDay() === 0 ? 7 : date.getDay());
      case "D":
        return `${pad(date.getMonth() + 1, 2, "0")}/${pad(date.getDate(), 2, "0")}/${pad(date.getFullYear() % 100, 2, "0")}`;
      case "F":
        return `${date.getFullYear()}-${pad(date.getMonth() + 1, 2, "0")}-${pad(date.getDate(), 2, "0")}`;
      case "T":
        return `${pad(hours, 2, "0")}:${pad(date.getMinutes(), 2, "0")}:${pad(date.getSeconds(), 2, "0")}`;
      case "z":
      case "Z":
        return "";
      case "%":
        return "%";
      default:
        return whole;
    }
  });
}
