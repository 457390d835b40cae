import { useParams } from 'react-router';
import { RegisterPage } from '@/features/account/components/register-page';

/** /register/{token?}: with a token on into setup, without one how to get an invitation. */
export function RegisterRoute() {
  const { token } = useParams();
  return <RegisterPage token={token} />;
}
