// Shared by every package's vitest config. In CI, property tests draw from one fixed seed, so a landing is decided
// by the code, not by a rare draw; locally every run draws anew. FC_SEED replays a seed a failure printed.
import fc from "fast-check";

const seed = process.env.FC_SEED ?? (process.env.CI ? "20261121" : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
