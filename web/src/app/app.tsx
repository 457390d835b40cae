import { RouterProvider } from 'react-router';
import { setNavigator } from '@/lib/navigation';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

const router = createAppRouter();
setNavigator((to) => void router.navigate(to));

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
