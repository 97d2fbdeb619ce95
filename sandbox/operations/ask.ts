import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const ask: Handler<'ask'> = () => {
  throw new SandboxError(501, 'not_implemented', 'ask is not implemented yet');
};
