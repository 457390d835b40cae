// The fillable PDF forms of the applicant's package (issue 11 contract):
// the list (GET /api/v2/user/profile/fillable-pdf-forms), a form's blank
// template, the applicant's submitted copy, and the submit of a filled copy
// as multipart (POST /api/v2/user/profile/fillable-pdf-form/{id}).
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { invalidateSubject } from '@/lib/subject';

/** The applicant's latest filled copy of a form. */
export type SubmittedForm = { name: string; size: number; sha256: string; submittedAt: string };

/** One form that applies to the applicant. */
export type PdfForm = {
  id: number;
  code: string;
  title: string;
  description: string;
  required: boolean;
  fieldNames: string[];
  submitted: SubmittedForm | null;
};

export type SubmitFormAnswer = { message: string; form: PdfForm };

const formPath = (id: number) => `api/v2/user/profile/fillable-pdf-form/${id}`;

export const pdfFormsQuery = () =>
  queryOptions({
    queryKey: ['fillable-pdf-forms'],
    queryFn: () => api.get<PdfForm[]>('api/v2/user/profile/fillable-pdf-forms'),
  });

export const usePdfForms = () => useQuery(pdfFormsQuery());

/** The blank template of a form, as bytes for pdf-lib. */
export async function fetchTemplate(id: number): Promise<ArrayBuffer> {
  const blob = await api.get<Blob>(formPath(id), { responseType: 'blob' });
  return blob.arrayBuffer();
}

/** The applicant's latest filled copy, as bytes for pdf-lib (its answers start the form again). */
export async function fetchSubmitted(id: number): Promise<ArrayBuffer> {
  const blob = await api.get<Blob>(`${formPath(id)}/submitted`, { responseType: 'blob' });
  return blob.arrayBuffer();
}

/** Sends the filled PDF (one file part `file`, named after the form's code). */
export function submitForm(id: number, bytes: Uint8Array, code: string): Promise<SubmitFormAnswer> {
  const body = new FormData();
  // A File, not a Blob with a name: the name then travels with the part wherever FormData is serialized.
  // slice(): a copy into a plain ArrayBuffer, which a File part takes whatever buffer `bytes` views.
  body.append('file', new File([bytes.slice()], `${code}.pdf`, { type: 'application/pdf' }));
  return api.post<SubmitFormAnswer>(formPath(id), body);
}

/** After a submit: the list shows the new copy, the checklist its page done. */
export async function afterSubmit(client: QueryClient, answer: SubmitFormAnswer) {
  client.setQueryData<PdfForm[]>(pdfFormsQuery().queryKey, (forms) =>
    forms?.map((form) => (form.id === answer.form.id ? answer.form : form)),
  );
  await Promise.all([client.invalidateQueries({ queryKey: pdfFormsQuery().queryKey }), invalidateSubject(client)]);
}

/** Downloads the applicant's submitted copy under its stored name. */
export async function downloadFilledForm(form: Pick<PdfForm, 'id' | 'code' | 'submitted'>) {
  const blob = await api.get<Blob>(`${formPath(form.id)}/submitted`, { responseType: 'blob' });
  saveFile(blob, form.submitted?.name || `${form.code}.pdf`);
}
