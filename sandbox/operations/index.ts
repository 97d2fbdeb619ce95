/** Every operation's handler, by name. */
import type { Handler, OperationName } from '../types.js';
import { my_account } from './my_account.js';
import { ask } from './ask.js';
import { find_investors } from './find_investors.js';
import { analyze_deck } from './analyze_deck.js';
import { get_deck_analysis } from './get_deck_analysis.js';
import { find_startups_for_fund } from './find_startups_for_fund.js';
import { find_customers } from './find_customers.js';
import { search_investors } from './search_investors.js';
import { get_investor } from './get_investor.js';
import { search_startups } from './search_startups.js';
import { get_startup } from './get_startup.js';
import { country_overview } from './country_overview.js';

export const HANDLERS: { [N in OperationName]: Handler<N> } = {
  my_account,
  ask,
  find_investors,
  analyze_deck,
  get_deck_analysis,
  find_startups_for_fund,
  find_customers,
  search_investors,
  get_investor,
  search_startups,
  get_startup,
  country_overview,
};
