// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as AliasesRoute } from './coming-soon';
