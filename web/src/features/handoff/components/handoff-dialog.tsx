// "Continue on your phone": a one-time link to the page the applicant is on, as a QR code to scan,
// a link to copy, and by e-mail or text. The QR encoder loads only when the dialog opens (not on /login).
import '../lib/messages';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/text-field';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';
import { useCreateHandoff, useHandoffChannels, type Handoff, type HandoffSend } from '../api/handoff';
import styles from './handoff-dialog.module.css';

/** The QR code's dark modules as one SVG path, with the 4-module quiet zone scanners need. */
async function qrPath(text: string): Promise<{ d: string; size: number }> {
  const { encode } = await import('uqr');
  const { data } = encode(text, { ecc: 'M', border: 0 });
  const quiet = 4;
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }),
  );
  return { d, size: data.length + 2 * quiet };
}

function QrCode({ text }: { text: string }) {
  const [qr, setQr] = useState<{ text: string; d: string; size: number } | null>(null);
  useEffect(() => {
    let live = true;
    void qrPath(text).then((q) => live && setQr({ text, ...q }));
    return () => {
      live = false;
    };
  }, [text]);
  if (!qr || qr.text !== text) return <div className={styles.qrPlaceholder} aria-hidden="true" />;
  return (
    <svg
      className={styles.qr}
      role="img"
      aria-label={t('handoff.dialog.qrLabel')}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      data-testid="handoff-qr"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qr.d} fill="#000" />
    </svg>
  );
}

function timeOf(iso: string) {
  return new Date(iso).toLocaleTimeString(currentLocale(), { hour: 'numeric', minute: '2-digit' });
}

/** Whether the link has expired, checked again when its expiry comes. */
function useExpired(expiresAt: string | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const left = new Date(expiresAt).getTime() - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left + 50);
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expiresAt !== undefined && new Date(expiresAt).getTime() <= now;
}

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
};

export function HandoffDialog({ open, onOpenChange, returnFocusTo }: Props) {
  const location = useLocation();
  const page = location.pathname + location.search;
  const channels = useHandoffChannels(open);
  const create = useCreateHandoff();
  const [link, setLink] = useState<Handoff | null>(null);
  const [sent, setSent] = useState<{ send: HandoffSend; to: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const expired = useExpired(link?.expiresAt);
  const linkField = useRef<HTMLInputElement>(null);
  const { mutate, reset } = create;

  const make = (send: HandoffSend) => {
    setCopied(false);
    mutate(
      { path: page, send },
      {
        onSuccess: (made) => {
          setLink(made);
          setSent(send && made.sentTo ? { send, to: made.sentTo } : null);
        },
      },
    );
  };

  // A fresh link for the page each time the dialog opens; none is made while it stays closed.
  useEffect(() => {
    if (!open) {
      setLink(null);
      setSent(null);
      reset();
      return;
    }
    make(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening, for the page it opened on
  }, [open]);

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the link is selected for copying by hand.
      linkField.current?.select();
    }
  };

  const phone = channels.data?.phone ?? null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('handoff.dialog.title')} returnFocusTo={returnFocusTo}>
      <div className={styles.body}>
        <p>{t('handoff.dialog.intro')}</p>
        {create.isError ? (
          <Alert tone="error">{t('handoff.dialog.failed', { message: errorMessageOf(create.error) })}</Alert>
        ) : null}
        {link && !expired ? <QrCode text={link.url} /> : null}
        {!link && create.isPending ? <p role="status">{t('handoff.dialog.loading')}</p> : null}
        {link && expired ? <Alert tone="warning">{t('handoff.dialog.expired')}</Alert> : null}
        {link && !expired ? (
          <>
            <p className={styles.expiry}>{t('handoff.dialog.expiry', { time: timeOf(link.expiresAt) })}</p>
            <div className={styles.linkRow}>
              <TextField
                ref={linkField}
                label={t('handoff.dialog.linkLabel')}
                value={link.url}
                readOnly
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button type="button" variant="secondary" onClick={() => void copy()}>
                {copied ? t('handoff.dialog.copied') : t('handoff.dialog.copy')}
              </Button>
            </div>
          </>
        ) : null}
        {sent ? (
          <Alert tone="success">
            {sent.send === 'email'
              ? t('handoff.dialog.sentEmail', { address: sent.to })
              : t('handoff.dialog.sentText', { ending: sent.to })}
          </Alert>
        ) : null}
        <div className={styles.actions}>
          {link && expired ? (
            <Button type="button" onClick={() => make(null)} loading={create.isPending}>
              {t('handoff.dialog.newCode')}
            </Button>
          ) : null}
          {create.isError && !link ? (
            <Button type="button" onClick={() => make(null)} loading={create.isPending}>
              {t('handoff.dialog.retry')}
            </Button>
          ) : null}
          <Button type="button" variant="secondary" onClick={() => make('email')} disabled={create.isPending}>
            {t('handoff.dialog.email')}
          </Button>
          {phone ? (
            <Button type="button" variant="secondary" onClick={() => make('sms')} disabled={create.isPending}>
              {t('handoff.dialog.text')}
            </Button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
