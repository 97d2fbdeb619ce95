import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const analyze_deck: Handler<'analyze_deck'> = () => {
  throw new SandboxError(501, 'not_implemented', 'analyze_deck is not implemented yet');
};
