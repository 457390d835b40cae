import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { LegalDocument } from '../lib/legal-steps';

export const getLegalDocuments = () => api.get<LegalDocument[]>('api/v2/user/document');

export const legalDocumentsQueryOptions = () =>
  queryOptions({ queryKey: ['legal-documents'], queryFn: getLegalDocuments });

export const useLegalDocuments = () => useQuery(legalDocumentsQueryOptions());
