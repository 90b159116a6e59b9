import { Center, Loader } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { renewSession, session, setUnauthorizedHandler } from './api.ts';

/**
 * The app's screens need an administrator's session. A tab without a token (a new tab, the browser
 * reopened with "remember me") asks for one with the refresh cookie first; without a session, the
 * login screen (then back here).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<'signed-in' | 'renewing' | 'signed-out'>(session.token ? 'signed-in' : 'renewing');
  useEffect(() => {
    setUnauthorizedHandler(() => navigate('/login', { replace: true, state: { from: location.pathname } }));
  }, [navigate, location.pathname]);
  useEffect(() => {
    if (state !== 'renewing') return;
    let live = true;
    void renewSession().then((token) => live && setState(token ? 'signed-in' : 'signed-out'));
    return () => {
      live = false;
    };
  }, [state]);
  if (state === 'renewing')
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (state === 'signed-out' || !session.token)
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
