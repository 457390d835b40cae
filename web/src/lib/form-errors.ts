// Puts the server's field errors (422 "validation error" with errorFields)
// back onto the form's fields, as coder's mapApiErrorToFieldErrors does, and
// brings the first of them into view.
import type { FieldErrors, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { SummaryField } from '@/components/ui/alert';
import { ApiError, errorMessageOf } from './api-client';

export type ServerErrors = {
  /** The fields the messages were put on, in page order (for an error summary). */
  fields: (SummaryField & { name: string })[];
  /** Messages that belong to no field the form shows (for an alert above it). */
  messages: string[];
};

type FieldControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The enabled control named `name` in the form: a message put on a hidden or disabled field would be seen by nobody. */
function controlOf(form: HTMLFormElement, name: string): FieldControl | null {
  const found =
    form.elements.namedItem(name) ??
    // A field of several boxes (a date: day, month, year) names its fieldset; its first box at fault takes the link.
    form.querySelector(`fieldset[data-field="${CSS.escape(name)}"] [data-focus-target]`);
  const control = found instanceof RadioNodeList ? (found[0] as Element | undefined) : found;
  if (
    !(
      control instanceof HTMLInputElement ||
      control instanceof HTMLSelectElement ||
      control instanceof HTMLTextAreaElement
    ) ||
    control.disabled
  ) {
    return null;
  }
  return control;
}

/** The words of a control's label, without the required marker. */
function labelOf(control: FieldControl, fallback: string): string {
  const label = control.closest('fieldset[data-field]')?.querySelector('legend') ?? control.labels?.[0];
  return (label?.firstChild?.textContent ?? label?.textContent ?? '').trim() || fallback;
}

type Found = { control: FieldControl; field: ServerErrors['fields'][number] };

/** The fields in page order, not the order they were named in: the first is the first a reader meets. */
function inPageOrder(found: Found[]): Found[] {
  return [...found].sort((a, b) =>
    a.control.compareDocumentPosition(b.control) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
  );
}

function fieldOf(control: FieldControl, name: string): Found {
  return { control, field: { name, id: control.id, label: labelOf(control, name) } };
}

/** The paths of the fields in error, "licenses.0.number" for nested ones. */
function errorPaths(errors: FieldErrors, prefix = ''): string[] {
  return Object.entries(errors).flatMap(([key, value]) => {
    if (!value || typeof value !== 'object') return [];
    const path = prefix + key;
    return 'message' in value && typeof value.message === 'string'
      ? [path]
      : errorPaths(value as FieldErrors, `${path}.`);
  });
}

/**
 * The fields a failed submit left in error, in page order, for the error
 * summary that takes focus (the client's rules: the server's go through
 * applyServerErrors). Fields the form does not show are left out.
 */
export function invalidFields(errors: FieldErrors, form: HTMLFormElement | null): ServerErrors['fields'] {
  if (!form) return [];
  const found = errorPaths(errors).flatMap((name) => {
    const control = controlOf(form, name);
    return control ? [fieldOf(control, name)] : [];
  });
  return inPageOrder(found).map((f) => f.field);
}

/**
 * Sets each errorField on the field of that name that `form` shows, focuses
 * the first such field in page order, and returns the fields in error and the
 * messages that belong to no shown field. Each message lands in one place.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  form: HTMLFormElement | null,
): ServerErrors {
  if (!(error instanceof ApiError)) return { fields: [], messages: [errorMessageOf(error)] };
  const found: Found[] = [];
  const messages: string[] = [];
  for (const { field, message } of error.errorFields) {
    const control = form ? controlOf(form, field) : null;
    if (!control) {
      if (!messages.includes(message)) messages.push(message);
      continue;
    }
    // A field named twice keeps its first message, as react-hook-form shows one per field.
    if (found.some((f) => f.field.name === field)) continue;
    setError(field as Path<T>, { type: 'server', message });
    found.push(fieldOf(control, field));
  }
  if (error.errorFields.length === 0) messages.push(error.errorMessage);

  const order = inPageOrder(found);
  order[0]?.control.focus();
  return { fields: order.map((o) => o.field), messages };
}
