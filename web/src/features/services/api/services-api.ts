// The service pages' calls (docs/api.md): the subject data document, the
// in-flight save (POST /api/v2/user/data, structure only) and the validated
// save (POST /api/v2/user/profile). Under the ['subject'] key, so the
// invalidation after any save reads the document again too.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DataAlias, ServiceEntry } from '@/lib/subject';

export type SubjectDataDoc = {
  location?: unknown;
  noDataAvailable?: Partial<Record<DataAlias, boolean>>;
  services?: Partial<Record<string, ServiceEntry[]>>;
};

export type ServicesBody = {
  noDataAvailable?: Partial<Record<string, boolean>>;
  services: Record<string, ServiceEntry[]>;
};

type DataAnswer = { payload: { data: SubjectDataDoc } };

export const subjectDataQuery = () =>
  queryOptions({
    queryKey: ['subject', 'data'],
    queryFn: () => api.get<DataAnswer>('api/v2/user/data').then((r) => r.payload.data),
  });

export const saveServiceData = (body: ServicesBody) =>
  api.post<DataAnswer>('api/v2/user/data', body).then((r) => r.payload.data);

export const saveServiceProfile = (body: ServicesBody) =>
  api.post<DataAnswer>('api/v2/user/profile', body).then((r) => r.payload.data);
