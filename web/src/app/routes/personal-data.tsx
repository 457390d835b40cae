// /personal-data: the same personal information form as /personal (spec
// section 2 lists both paths); one page, two addresses, no second form.
export { PersonalRoute as PersonalDataRoute } from './personal';
