// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as PersonalDataRoute } from './coming-soon';
