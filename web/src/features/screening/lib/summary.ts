// What the applicant is told of the whole screening after submission: every check complete, or the
// date by which the open checks are expected (the latest of their estimates), and how many need them.
import type { ScreeningService } from '../api/order-services';

export type ScreeningSummary =
  { kind: 'complete' } | { kind: 'expected'; latest: string; needsYou: number } | { kind: 'unknown'; needsYou: number };

export function isComplete(service: ScreeningService): boolean {
  return service.status === 'complete' || service.state === 'complete';
}

export function screeningSummary(services: ScreeningService[]): ScreeningSummary {
  const open = services.filter((service) => !isComplete(service));
  if (services.length > 0 && open.length === 0) return { kind: 'complete' };
  const needsYou = open.filter((service) => service.state === 'waiting-applicant').length;
  // YYYY-MM-DD strings sort as the days they name.
  const latest = open
    .map((service) => service.estimate?.latest)
    .filter((day): day is string => Boolean(day))
    .sort()
    .at(-1);
  return latest ? { kind: 'expected', latest, needsYou } : { kind: 'unknown', needsYou };
}
