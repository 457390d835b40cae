import { useLocation, useNavigate } from 'react-router';
import { LoginPage } from '@/features/auth/components/login-page';

/** /login once the router app is loaded (after a logout, a guard's redirect); the first load has app/login-shell.tsx. */
export function LoginRoute() {
  const navigate = useNavigate();
  return <LoginPage navigate={(to) => void navigate(to)} locationState={useLocation().state} />;
}
