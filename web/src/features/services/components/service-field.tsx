// One field of a service definition, drawn with the design system by its type.
import '@/features/services/lib/messages';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { RadioGroup } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { t } from '@/lib/i18n';
import type { Country, LookupItem } from '@/lib/lookups';
import type { FieldDefinition } from '@/lib/subject';
import { maxLengthOf } from '../lib/validate-entry';
import { TextAreaField, TextField } from '@/components/ui/text-field';

type ServiceFieldProps = {
  field: FieldDefinition;
  registration: UseFormRegisterReturn;
  required: boolean;
  error?: string;
  className?: string;
  states: LookupItem[];
  countries: Country[];
};

const AUTOCOMPLETE: Partial<Record<FieldDefinition['type'], string>> = { email: 'email', phone: 'tel' };

export function ServiceField({
  field,
  registration,
  required,
  error,
  className,
  states,
  countries,
}: ServiceFieldProps) {
  const common = { label: field.name, required, optional: !required, error, className };
  const hint = field.hint || (field.flag === 'dot' ? t('services.form.dotHint') : undefined);
  switch (field.type) {
    case 'checkbox':
      return <Checkbox label={field.name} hint={hint} error={error} className={className} {...registration} />;
    case 'radio':
      return (
        <RadioGroup
          legend={field.name}
          hint={hint}
          error={error}
          required={required}
          optional={!required}
          className={className}
          options={field.options}
          {...registration}
        />
      );
    case 'select':
      return (
        <Select {...common} hint={hint} placeholder={t('services.form.choose')} {...registration}>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      );
    case 'state':
      return (
        <Select {...common} hint={hint} placeholder={t('services.form.chooseState')} {...registration}>
          {states.map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </Select>
      );
    case 'country':
      return (
        <Select {...common} hint={hint} placeholder={t('services.form.chooseCountry')} {...registration}>
          {countries.map((c) => (
            <option key={c.countryCode} value={c.countryCode}>
              {c.countryName}
            </option>
          ))}
        </Select>
      );
    case 'date':
    case 'month':
      return <DateField {...common} kind={field.type} hint={hint} {...registration} />;
    case 'textarea':
      return <TextAreaField {...common} hint={hint} maxLength={maxLengthOf(field)} {...registration} />;
    default:
      return (
        <TextField
          {...common}
          hint={hint}
          type={field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text'}
          autoComplete={AUTOCOMPLETE[field.type]}
          maxLength={maxLengthOf(field)}
          {...registration}
        />
      );
  }
}
