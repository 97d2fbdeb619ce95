/** Delivery of a run's reports: email, chat webhook, object storage. */
export type { DeliveryFigure, DeliveryFile, DeliveryOutcome, DeliverySummary } from './types.js';
