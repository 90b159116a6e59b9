import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { session, setUnauthorizedHandler } from './api.ts';

/** The app's screens need an administrator's session: without one, the login screen (then back here). */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => navigate('/login', { replace: true, state: { from: location.pathname } }));
  }, [navigate, location.pathname]);
  if (!session.token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
