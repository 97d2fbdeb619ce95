/**
 * Addresses of the sandbox's HTML views, as the read operations put them in their results.
 */

/** The view of an investor profile. */
export function investorUrl(baseUrl: string, key: string): string {
  return `${baseUrl}/view/investors/${encodeURIComponent(key)}`;
}

/** The view of a startup profile. */
export function startupUrl(baseUrl: string, key: string): string {
  return `${baseUrl}/view/startups/${encodeURIComponent(key)}`;
}

/** The view of a country overview. */
export function countryUrl(baseUrl: string, country: string): string {
  return `${baseUrl}/view/countries/${encodeURIComponent(country)}`;
}

/** The view of an account. */
export function accountUrl(baseUrl: string, accountId: string): string {
  return `${baseUrl}/view/account/${encodeURIComponent(accountId)}`;
}

/**
 * The view that re-runs a search with the same parameters: arrays as repeated parameters,
 * undefined values left out.
 */
export function searchUrl(
  baseUrl: string,
  operation: 'search_investors' | 'search_startups',
  params: Record<string, unknown>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const text = query.toString();
  return `${baseUrl}/view/${operation}${text ? `?${text}` : ''}`;
}
