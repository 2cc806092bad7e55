/**
 * An answer as Markdown, rendered safely: react-markdown builds React
 * elements (raw HTML is dropped, never injected), tables and lists by GFM,
 * links made inert except citations, which open the recording at that moment
 * and play it.
 */
import { memo, type MouseEvent } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { clockLabel, linkCitations, parseCitationHref } from '../../../../shared/chat/citations';
import type { ChatSource, Citation } from '../../../../shared/chat/schema';
import { useApp } from '../../stores/app';

function CitationLink({ href, children }: { href: string; children: React.ReactNode }) {
  const target = parseCitationHref(href);
  if (!target) return <span>{children}</span>;
  const open = (e: MouseEvent) => {
    e.preventDefault();
    useApp.getState().openTranscript(target.recordingId, target.atMs, true);
  };
  return (
    <a className="cite" href={href} onClick={open} title={`Open the recording at ${clockLabel(target.atMs)} and play it`}>
      {children}
    </a>
  );
}

const components: Components = {
  a: ({ href, children }) =>
    href?.startsWith('#cite/') ? (
      <CitationLink href={href}>{children}</CitationLink>
    ) : (
      // Answers are not trusted pages: an outside link is shown, not followed from inside the app.
      <span className="answer__link" title={href}>
        {children}
      </span>
    ),
  img: ({ alt }) => <span className="muted">[image: {alt}]</span>,
};

export const AnswerMarkdown = memo(function AnswerMarkdown({ content, citations, sources }: { content: string; citations: Citation[]; sources: ChatSource[] }) {
  const titleOf = (id: string) => sources.find((s) => s.recordingId === id)?.title;
  return (
    <div className="answer">
      <Markdown remarkPlugins={[remarkGfm]} components={components} skipHtml>
        {linkCitations(content, citations, titleOf)}
      </Markdown>
    </div>
  );
});
