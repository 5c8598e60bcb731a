/**
 * Where a record is in its file.
 *
 * @example
 * findingPlace("data.jsonl", { line: 3 } satisfies RecordPlace); // { file: "data.jsonl", line: 3 }
 */
export interface RecordPlace {
  /** The JSONL line (1-based), or the first line of a session. */
  line?: number;
  /** The element of a JSON array of records. */
  index?: number;
}

/**
 * Where a finding is, as the reports write it: the file, and the line or the array element when there is one.
 *
 * @example
 * findingPlace("a.jsonl", { line: 3 }); // { file: "a.jsonl", line: 3 }
 * findingPlace("b.json", { index: 0 }); // { file: "b.json", record: 0 }
 */
export function findingPlace(
  file: string,
  place: RecordPlace,
): { file: string; line?: number; record?: number } {
  return {
    file,
    ...(place.line !== undefined ? { line: place.line } : {}),
    ...(place.index !== undefined ? { record: place.index } : {}),
  };
}
