import { Outlet } from 'react-router';
import styles from './layout.module.css';

/** Nothing around the page: print pages. */
export function BlankLayout() {
  return (
    <main id="main" className={styles.blank}>
      <Outlet />
    </main>
  );
}
