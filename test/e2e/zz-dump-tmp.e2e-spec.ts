import { writeFileSync } from 'node:fs';
import { createTestApp } from '../support/test-app';
import { API, http } from '../support/http';
it('dump', async () => {
  const t = await createTestApp();
  const res = await http(t).get(`${API}/doc`);
  writeFileSync('/tmp/fz/doc.json', JSON.stringify(res.body, null, 1));
  await t.close();
});
