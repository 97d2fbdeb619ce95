import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const get_deck_analysis: Handler<'get_deck_analysis'> = () => {
  throw new SandboxError(501, 'not_implemented', 'get_deck_analysis is not implemented yet');
};
