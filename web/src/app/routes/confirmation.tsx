// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as ConfirmationRoute } from './coming-soon';
