// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as AccountRoute } from './coming-soon';
