import { api } from '@/lib/api-client';
import type { PersonalInformation } from '@/types/api';
import { toRequest, type PersonalValues } from '../lib/personal-rules';

/** What PUT /api/v2/user answers: the part of GET /api/v2/user that the save changed, in the same place. */
export type PersonalSaved = { subject: { personalInformation: PersonalInformation } };

export const savePersonalInfo = (values: PersonalValues) => api.put<PersonalSaved>('api/v2/user', toRequest(values));
