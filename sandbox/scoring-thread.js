// The entry of a scoring thread: plain JavaScript, so it loads the same way whether the sandbox
// runs under tsx's CLI, node --import tsx, or vitest (whose own loader a thread does not get);
// it loads the TypeScript thread through tsx's API. See sandbox/scoring-worker.ts.
import { tsImport } from 'tsx/esm/api';

await tsImport('./scoring-worker.ts', import.meta.url);
