import { api } from '@/lib/api-client';
import type { UserPayload } from '@/types/api';
import { toRequest, type PersonalValues } from '../lib/personal-rules';

export const savePersonalInfo = (values: PersonalValues) => api.put<UserPayload>('api/v2/user', toRequest(values));
