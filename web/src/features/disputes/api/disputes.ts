// The applicant's disputes of their report (FCRA section 611; docs/api.md, "Disputes"): the list, one
// dispute with its messages, opening one with its evidence, adding information, and the files.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { uploadFile, type UploadOptions } from '@/lib/upload';

export const DISPUTE_REASONS = ['not-me', 'inaccurate', 'incomplete', 'outdated'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export type DisputeState = 'received' | 'reinvestigating' | 'resolved';
export type DisputeOutcome = 'corrected' | 'verified' | 'deleted';

export type DisputeFile = { id: number; name: string; contentType: string; size: number };

export type DisputeMessage = {
  id: number;
  author: 'applicant' | 'operator';
  message: string;
  files: DisputeFile[];
  createdAt: string;
};

export type Dispute = {
  id: number;
  reason: DisputeReason;
  /** Empty for the report as a whole. */
  serviceCode: string;
  serviceName: string;
  explanation: string;
  state: DisputeState;
  outcome: DisputeOutcome | '';
  resolution: string;
  receivedAt: string;
  dueAt: string;
  /** The server's count: a part of a day counts as a day, 0 once due or resolved. */
  daysLeft: number;
  extended: boolean;
  resolvedAt: string | null;
  files: DisputeFile[];
  messages: DisputeMessage[];
};

/** How many files one request may send, and how long a text may be (the server's limits). */
export const MAX_DISPUTE_FILES = 5;
export const MAX_DISPUTE_TEXT = 5000;

const DISPUTES = 'api/v2/user/disputes';

export const disputesQuery = () =>
  queryOptions({
    queryKey: ['disputes'],
    queryFn: () => api.get<{ payload: Dispute[] }>(DISPUTES).then((answer) => answer.payload),
  });

export const useDisputes = () => useQuery(disputesQuery());

export const disputeQuery = (id: number) =>
  queryOptions({ queryKey: ['disputes', id], queryFn: () => api.get<Dispute>(`${DISPUTES}/${id}`) });

export const useDispute = (id: number) => useQuery(disputeQuery(id));

export type NewDispute = { reason: DisputeReason; serviceCode: string; explanation: string; files: File[] };

/** The fields first, then the files: the server checks the fields before it reads a file. */
function disputeBody(fields: Record<string, string>, files: File[]) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) body.append('file', file, file.name);
  return body;
}

export function openDispute({ files, ...fields }: NewDispute, options: UploadOptions = {}) {
  return uploadFile<Dispute>(DISPUTES, disputeBody(fields, files), options);
}

export function addDisputeInformation(id: number, message: string, files: File[], options: UploadOptions = {}) {
  return uploadFile<Dispute>(`${DISPUTES}/${id}/information`, disputeBody({ message }, files), options);
}

export async function downloadDisputeFile(disputeId: number, file: DisputeFile) {
  saveFile(await api.get<Blob>(`${DISPUTES}/${disputeId}/files/${file.id}`, { responseType: 'blob' }), file.name);
}

/** After a dispute changed: the list and every dispute read. */
export function invalidateDisputes(client: QueryClient) {
  return client.invalidateQueries({ queryKey: ['disputes'] });
}
