// The design system has no multi-line field yet: this one uses its frame
// (label, hint, error, aria) and control style, so it looks and reads like TextField.
import type { ComponentProps } from 'react';
import { FieldFrame, fieldStyles as styles, useFieldIds, type FieldProps } from '@/components/ui/field';

export type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'children'> & FieldProps;

export function TextAreaField({
  label,
  hint,
  error,
  required,
  id,
  className,
  'aria-describedby': describedBy,
  ...props
}: TextAreaFieldProps) {
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} required={required} hint={hint} error={error} ids={ids}>
      <textarea
        id={ids.controlId}
        className={styles.control}
        rows={4}
        aria-required={required || undefined}
        {...aria}
        {...props}
      />
    </FieldFrame>
  );
}
