// /ui: every component of the design system in every state, and the one form
// pattern, on one page a reviewer (or the next feature's author) can open.
// Lazy like every route page, so none of it counts in what /login loads.
import { useRef, useState } from 'react';
import { z } from 'zod/mini';
import { BrandLogo } from '@/components/logo/brand-logo';
import { TrustPanel } from '@/components/trust-panel/trust-panel';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { Dialog, DialogActions, DialogClose } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Fieldset } from '@/components/ui/fieldset';
import { PageHeader } from '@/components/ui/page-header';
import { PasswordField } from '@/components/ui/password-field';
import { Progress } from '@/components/ui/progress';
import { RadioGroup } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { SsnField } from '@/components/ui/ssn-field';
import { Stepper, type Step } from '@/components/ui/stepper';
import { TextAreaField, TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import gallery from './ui-gallery.json';
import styles from './ui.module.css';

/**
 * The gallery's own sample texts. They stay out of the app's catalogue on
 * purpose: lib/i18n loads the whole catalogue with the entry, and /login
 * would carry 1.5 kB gzip of samples nobody applying ever sees. Component
 * texts (toggle names, the summary's count) still come through t().
 */
function g(key: keyof typeof gallery): string {
  return gallery[key];
}

const steps: Step[] = [
  { id: 'welcome', title: g('welcome'), status: 'complete' },
  { id: 'password', title: g('createPassword'), status: 'complete' },
  { id: 'login', title: g('login'), status: 'complete' },
  { id: 'legal', title: g('legal'), status: 'current' },
  { id: 'personal', title: g('personal'), status: 'pending' },
];

export function UiRoute() {
  return (
    <div className={styles.page}>
      <PageHeader titleId="ui-title" title={g('title')} description={g('intro')} />

      <Section id="buttons" title={g('buttons')}>
        <div className={styles.row}>
          <Button>{g('primary')}</Button>
          <Button variant="secondary">{g('secondary')}</Button>
          <Button variant="quiet">{g('quiet')}</Button>
          <Button variant="danger">{g('danger')}</Button>
          <Button variant="link">{g('link')}</Button>
        </div>
        <div className={styles.row}>
          <Button disabled>{g('disabled')}</Button>
          <Button variant="secondary" disabled>
            {g('disabled')}
          </Button>
          <Button loading>{g('saving')}</Button>
          <Button variant="secondary" loading>
            {g('saving')}
          </Button>
        </div>
      </Section>

      <Section id="fields" title={g('fields')}>
        <div className={styles.grid}>
          <TextField label={g('firstName')} hint={g('firstNameHint')} required />
          <TextField label={g('email')} type="email" defaultValue="riley@" error={g('emailError')} />
          <TextField label={g('readOnly')} defaultValue="riley.stone@example.com" readOnly />
          <TextField label={g('disabledField')} disabled />
          <TextAreaField label={g('notes')} hint={g('notesHint')} />
          <PasswordField label={g('password')} defaultValue="correct horse" />
          <SsnField label={g('ssn')} hint={g('ssnHint')} defaultValue="123-45-6789" />
          <SsnField label={g('ssnDisabled')} disabled />
          <DateField label={g('dob')} autoComplete="bday" defaultValue="2090-01-01" error={g('dobError')} />
          <DateField
            kind="month"
            label={g('movedIn')}
            hint={g('movedInHint')}
            defaultValue="-06"
            error={g('monthError')}
          />
          <Select label={g('state')} placeholder={g('chooseState')} defaultValue="" required>
            <option value="TX">{g('texas')}</option>
            <option value="CA">{g('california')}</option>
          </Select>
          <Select label={g('state')} placeholder={g('chooseState')} defaultValue="" error={g('stateError')}>
            <option value="TX">{g('texas')}</option>
          </Select>
        </div>
      </Section>

      <Section id="choices" title={g('choices')}>
        <div className={styles.grid}>
          <div>
            <Checkbox label={g('agree')} />
            <Checkbox label={g('checked')} defaultChecked />
            <Checkbox label={g('checkboxDisabled')} disabled />
            <Checkbox label={g('agree')} error={g('agreeError')} />
          </div>
          <div>
            <RadioGroup
              legend={g('notify')}
              name="gallery-notify"
              defaultValue="email"
              options={[
                { value: 'email', label: g('byEmail') },
                { value: 'sms', label: g('bySms') },
                { value: 'phone', label: g('byPhone'), hint: g('phoneHint'), disabled: true },
              ]}
            />
            <RadioGroup
              legend={g('notify')}
              name="gallery-notify-error"
              required
              error={g('notifyError')}
              options={[
                { value: 'email', label: g('byEmail') },
                { value: 'sms', label: g('bySms') },
              ]}
            />
          </div>
        </div>
        <Fieldset legend={g('yourName')} hint={g('yourNameHint')}>
          <div className={styles.grid}>
            <TextField label={g('firstName')} />
            <TextField label={g('lastName')} />
          </div>
        </Fieldset>
      </Section>

      <Section id="alerts" title={g('alerts')}>
        <Alert>
          <p>{g('alertError')}</p>
        </Alert>
        <Alert tone="warning" title={g('alertTitle')}>
          <p>{g('alertWarning')}</p>
        </Alert>
        <Alert tone="info">
          <p>{g('alertInfo')}</p>
        </Alert>
        <Alert tone="success">
          <p>{g('alertSuccess')}</p>
        </Alert>
        <ErrorSummary
          messages={[g('serverOther')]}
          fields={[
            { id: 'gallery-first', label: g('firstName') },
            { id: 'gallery-email', label: g('email') },
          ]}
        />
      </Section>

      <Section id="stepper" title={g('stepper')}>
        <p>{g('stepperWide')}</p>
        <Stepper steps={steps} label={g('stepsLabel')} />
        <p>{g('stepperNarrow')}</p>
        <div className={styles.narrow}>
          <Stepper
            steps={steps.map((s) => (s.id === 'login' ? { ...s, status: 'error' as const, error: g('stepError') } : s))}
            label={g('stepsLabelNarrow')}
          />
        </div>
      </Section>

      <Section id="surfaces" title={g('surfaces')}>
        <div className={styles.grid}>
          <Card as="div">
            <PageHeader
              headingLevel={2}
              eyebrow={g('eyebrow')}
              title={g('headerTitle')}
              description={g('headerDescription')}
              titleId="gallery-header"
            />
            <p>{g('cardBody')}</p>
          </Card>
          <Card as="div" variant="flat">
            <p>{g('cardTitle')}</p>
            <Skeleton lines={4} label={g('skeletonLabel')} />
          </Card>
        </div>
        <EmptyState
          title={g('emptyTitle')}
          headingLevel={3}
          action={<Button variant="secondary">{g('emptyAction')}</Button>}
        >
          <p>{g('emptyBody')}</p>
        </EmptyState>
      </Section>

      <Section id="progress" title={g('progress')}>
        <p>{g('progressText')}</p>
        <div className={styles.grid}>
          {(
            [
              [0, 'progressStart', 'progressStartValue'],
              [40, 'progressHalf', 'progressHalfValue'],
              [100, 'progressDone', 'progressDoneValue'],
            ] as const
          ).map(([value, label, valueText]) => (
            <div key={value}>
              {/* The bar shows no words of its own: the caption is for the reviewer's eye, the bar's name for screen readers. */}
              <p aria-hidden="true">{`${g(label)}: ${g(valueText)}`}</p>
              <Progress value={value} label={g(label)} valueText={g(valueText)} />
            </div>
          ))}
        </div>
      </Section>

      <Section id="dialog" title={g('dialog')}>
        <DialogDemo />
      </Section>

      <Section id="brand" title={g('brand')}>
        <div className={styles.row}>
          <BrandLogo />
          <BrandLogo size="lg" />
        </div>
        <TrustPanel headingLevel={3} employer={{ name: 'Acme Logistics' }} />
      </Section>

      <Section id="form" title={g('formPattern')}>
        <p>{g('formSteps')}</p>
        <FormDemo />
      </Section>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className={styles.section} aria-labelledby={`ui-${id}`}>
      <h2 id={`ui-${id}`} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function DialogDemo() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={opener} variant="secondary" onClick={() => setOpen(true)}>
        {g('openDialog')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        returnFocusTo={opener}
        title={g('dialogTitle')}
        description={g('dialogDescription')}
      >
        <TextField label={g('email')} />
        <DialogActions>
          <DialogClose asChild>
            <Button variant="link">{g('cancel')}</Button>
          </DialogClose>
        </DialogActions>
      </Dialog>
    </>
  );
}

const demoSchema = z.object({
  firstName: z.string().check(z.trim(), z.minLength(1, g('required'))),
  email: z.string().check(z.trim(), z.regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, g('emailInvalid'))),
});
type DemoValues = z.infer<typeof demoSchema>;

/** The pattern at work: a schema, useAppForm, and a refused save put back on the fields (useFailedSave). */
function FormDemo() {
  const form = useAppForm<DemoValues>(demoSchema, {
    defaultValues: { firstName: 'Riley', email: 'riley@example.com' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);

  const refuse = handleSubmit(async () => {
    const refusal = new ApiError(422, {
      errorMessage: 'validation error',
      errorFields: [
        { field: 'email', message: g('serverEmail') },
        { field: 'firstName', message: g('serverFirst') },
        { field: 'company', message: g('serverOther') },
      ],
    });
    failed.onServerError(refusal);
  }, failed.onInvalid);

  return (
    <Card as="div">
      <form ref={failed.formRef} onSubmit={refuse} noValidate aria-label={g('demoForm')}>
        {/* The first field in error takes focus; the summary only when no field could. */}
        <ErrorSummary key={failed.attempt} {...failed.summary} />
        <TextField
          id="gallery-first"
          label={g('firstName')}
          required
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          id="gallery-email"
          label={g('email')}
          type="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" loading={isSubmitting}>
          {g('demoServer')}
        </Button>
      </form>
    </Card>
  );
}
