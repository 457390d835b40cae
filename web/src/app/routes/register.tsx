// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as RegisterRoute } from './coming-soon';
