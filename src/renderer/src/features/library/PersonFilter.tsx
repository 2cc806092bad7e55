/** Beside the library search: narrow it to what one remembered person said; offered only once a voice is remembered. */
import { useEffect } from 'react';
import { usePeople } from '../../stores/people';
import { useSearch } from '../../stores/search';
import './person-filter.css';

export function PersonFilter() {
  const voices = usePeople((s) => s.voices);
  const loaded = usePeople((s) => s.loaded);
  const person = useSearch((s) => s.person);
  const setPerson = useSearch((s) => s.setPerson);

  useEffect(() => {
    void usePeople.getState().load();
  }, []);

  // A voice renamed or forgotten since it was picked: the narrowing follows it (or goes with it).
  useEffect(() => {
    if (!loaded || !person) return;
    const v = voices.find((x) => x.id === person.id);
    setPerson(v ? { id: v.id, name: v.name } : null);
  }, [loaded, voices, person, setPerson]);

  if (voices.length === 0) return null;
  return (
    <label className="library__person">
      <span>Said by</span>
      <select
        value={person?.id ?? ''}
        onChange={(e) => {
          const v = voices.find((x) => x.id === e.target.value);
          setPerson(v ? { id: v.id, name: v.name } : null);
        }}
      >
        <option value="">Anyone</option>
        {voices.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
          </option>
        ))}
      </select>
    </label>
  );
}
