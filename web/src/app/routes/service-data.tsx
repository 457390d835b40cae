// Placeholder until the service-driven data pages land (issue 10).
export {
  ComingSoonRoute as CredentialRoute,
  ComingSoonRoute as EducationRoute,
  ComingSoonRoute as EmploymentRoute,
  ComingSoonRoute as ProfessionalRoute,
} from './coming-soon';
