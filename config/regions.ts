/**
 * Regions a job file may name instead of a country list, expanded to the region's leading
 * venture markets (country names as the service spells them).
 */
export const JOB_REGIONS = {
  dach: ['Germany', 'Austria', 'Switzerland'],
  nordics: ['Sweden', 'Denmark', 'Norway', 'Finland', 'Iceland'],
  europe: ['United Kingdom', 'Germany', 'France', 'Netherlands', 'Sweden', 'Switzerland', 'Spain', 'Italy'],
  cee: ['Poland', 'Estonia', 'Czech Republic', 'Romania', 'Lithuania'],
  'north america': ['United States', 'Canada'],
  latam: ['Brazil', 'Mexico', 'Argentina', 'Colombia', 'Chile'],
  apac: ['China', 'India', 'Singapore', 'Japan', 'South Korea', 'Australia', 'Indonesia'],
  mena: ['Israel', 'United Arab Emirates', 'Saudi Arabia', 'Egypt', 'Turkey'],
  africa: ['Nigeria', 'Kenya', 'South Africa', 'Egypt'],
} as const satisfies Record<string, readonly string[]>;

export type JobRegion = keyof typeof JOB_REGIONS;
export const JOB_REGION_NAMES = Object.keys(JOB_REGIONS) as JobRegion[];
