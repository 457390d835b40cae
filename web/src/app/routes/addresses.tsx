// Placeholder until this page lands (issue 10).
export { ComingSoonRoute as AddressesRoute } from './coming-soon';
