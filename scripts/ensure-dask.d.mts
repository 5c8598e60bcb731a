export declare const DASK_PYTHON: string;
export declare function daskVersion(): string | undefined;
export declare function ensureDask():
  | { ok: true; python: string; version: string; installed: boolean }
  | { ok: false; reason: string; installable: boolean };
