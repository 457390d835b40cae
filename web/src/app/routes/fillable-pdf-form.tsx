import { FillableFormsPage } from '@/features/pdf-forms/components/fillable-forms-page';

/** /fillable-pdf-form "Forms": the employer's fillable PDF forms (features/pdf-forms). */
export function FillablePdfFormRoute() {
  return <FillableFormsPage />;
}
