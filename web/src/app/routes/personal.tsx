// /personal: the personal information form on its own.
import { PersonalForm } from '@/features/personal/components/personal-form';
import styles from './page.module.css';

export function PersonalRoute() {
  return (
    <div className={styles.page}>
      <h1>Personal Information</h1>
      <PersonalForm />
    </div>
  );
}
