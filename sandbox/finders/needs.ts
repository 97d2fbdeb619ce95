/**
 * Why a startup needs a seller: the kind of seller (law firm, accelerator, cloud, agency...)
 * read from its offering or brief, how much a startup's situation calls for it, and a concrete
 * reason with the startup's numbers.
 */
import type { Momentum } from './momentum.js';
import { usd } from './money.js';
import type { StartupRecord } from './snapshot.js';
import { stageLabel } from './stages.js';

export type SellerKind =
  'legal' | 'accelerator' | 'recruiting' | 'finance' | 'security' | 'cloud' | 'marketing' | 'general';

const KINDS: [SellerKind, RegExp][] = [
  ['legal', /\b(law|legal|lawyers?|attorneys?|counsel|term sheets?|employee equity|contracts?)\b/i],
  ['accelerator', /\b(accelerator|incubator|demo day|cohort|venture studio)\b/i],
  ['recruiting', /\b(recruit\w*|hiring|talent|headhunt\w*|staffing|executive search)\b/i],
  ['finance', /\b(accounting|bookkeeping|tax|audit\w*|fractional cfo|cfo services)\b/i],
  [
    'security',
    /\b(cyber ?security|security audits?|compliance|soc ?2|iso ?27001|gdpr|penetration test\w*)\b/i,
  ],
  ['cloud', /\b(cloud|infrastructure|compute|hosting|developer tool\w*|devops|gpus?|startup credits)\b/i],
  ['marketing', /\b(marketing|acquisition|brand(ing)?|advertising|seo|lifecycle|pr agency|agency)\b/i],
];

/** The kind of seller an offering or brief describes ('general' when none is recognised). */
export function sellerKind(text: string): SellerKind {
  for (const [kind, re] of KINDS) if (re.test(text)) return kind;
  return 'general';
}

const SOFTWARE = new Set(['Software & Developer Tools', 'Artificial Intelligence & Data']);
const CONSUMER = new Set(['Commerce & Marketing', 'Consumer, Lifestyle & Services']);
const REGULATED = new Set([
  'Software & Developer Tools',
  'Artificial Intelligence & Data',
  'Finance & Blockchain',
  'Healthcare & Life Sciences',
]);

/** How much the startup's situation calls for this kind of seller (0..1), without the reason text. */
export function needScore(kind: SellerKind, s: StartupRecord, m: Momentum): number {
  const months = m.months_since_last_round;
  switch (kind) {
    case 'legal':
      if (months !== null && months <= 6) return 1;
      if (months !== null && months >= 12 && months <= 30) return 0.7;
      return 0.3;
    case 'accelerator':
      return (s.stage === 'pre-seed' || s.stage === 'seed') && s.total_raised_usd <= 3_000_000 ? 1 : 0.2;
    case 'recruiting':
      return Math.min(1, m.capital_last_12m_usd / 10_000_000);
    case 'finance':
      return Math.min(1, s.rounds.length / 3);
    case 'security':
      return REGULATED.has(s.sector) ? 1 : 0.4;
    case 'cloud':
      return (SOFTWARE.has(s.sector) ? 1 : 0.4) * (m.capital_last_12m_usd > 0 ? 1 : 0.6);
    case 'marketing':
      return (CONSUMER.has(s.sector) ? 1 : 0.4) * (m.capital_last_12m_usd > 0 ? 1 : 0.6);
    case 'general':
      return m.score / 100;
  }
}

/**
 * How much the startup's situation calls for this kind of seller (0..1, as {@link needScore})
 * and the concrete reason, with the startup's numbers.
 */
export function needOf(
  kind: SellerKind,
  s: StartupRecord,
  m: Momentum,
  offering: string,
): { score: number; reason: string } {
  const score = needScore(kind, s, m);
  const months = m.months_since_last_round;
  const last = m.last_round_date
    ? `${usd(m.last_round_amount_usd ?? 0)} ${stageLabel(m.last_round_stage ?? '')} round on ${m.last_round_date}`
    : null;
  const raised12 = usd(m.capital_last_12m_usd);
  const rounds = `${s.rounds.length} round${s.rounds.length === 1 ? '' : 's'}`;
  const subject = s.subsector || s.sector;
  switch (kind) {
    case 'legal':
      if (last && score === 1)
        return {
          score,
          reason: `closed a ${last}: closing documents, employee equity and investor reporting follow`,
        };
      if (last && score === 0.7)
        return {
          score,
          reason: `last raised ${months} months ago (${last}): the next round's term sheet is likely within a year`,
        };
      return {
        score,
        reason: `${rounds} so far (${usd(s.total_raised_usd)}): equity and IP work grows with each round`,
      };
    case 'accelerator':
      return {
        score,
        reason: `${stageLabel(s.stage)} team founded in ${s.founded_year} with ${usd(s.total_raised_usd)} raised so far${score === 1 ? ': the stage an accelerator serves' : ''}`,
      };
    case 'recruiting':
      return {
        score,
        reason: `raised ${raised12} in the last 12 months (${m.rounds_last_12m} round${m.rounds_last_12m === 1 ? '' : 's'}): hiring follows funding`,
      };
    case 'finance':
      return {
        score,
        reason: `${rounds} and ${usd(s.total_raised_usd)} raised: investor reporting, audit and tax work grow`,
      };
    case 'security':
      return {
        score,
        reason: `${subject} company at ${stageLabel(s.stage)}: business buyers ask for security and compliance evidence`,
      };
    case 'cloud':
      return {
        score,
        reason: `${subject} company${m.capital_last_12m_usd > 0 ? ` that raised ${raised12} in the last 12 months` : ''}: compute and tooling spend grows with the team`,
      };
    case 'marketing':
      return {
        score,
        reason: `${CONSUMER.has(s.sector) ? 'consumer-facing' : 'growing'} ${subject} company${m.capital_last_12m_usd > 0 ? ` with ${raised12} raised in the last 12 months` : ''}: budget for acquisition and brand`,
      };
    case 'general': {
      const what = offering.split(/[.:;]/)[0]?.trim().toLowerCase() || 'the offering';
      return {
        score,
        reason: `raised ${raised12} in the last 12 months: budget for ${what.length > 80 ? `${what.slice(0, 77)}…` : what}`,
      };
    }
  }
}
