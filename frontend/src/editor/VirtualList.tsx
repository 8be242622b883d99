/**
 * A virtualised list: only the items on screen (plus a few) are in the DOM, which is what
 * keeps an 842-turn meeting quick to open and to scroll. Items are measured once rendered,
 * so estimates only need to be close.
 */
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { useImperativeHandle, useRef, type HTMLAttributes, type ReactNode, type Ref } from "react";

export interface VirtualListHandle {
  element: () => HTMLDivElement | null;
  offsetOf: (index: number) => number;
  totalSize: () => number;
  scrollToIndex: (index: number, align?: "auto" | "start" | "center") => void;
}

interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, "children"> {
  count: number;
  estimateSize: (index: number) => number;
  renderItem: (index: number, measure: (element: Element | null) => void) => ReactNode;
  handle: Ref<VirtualListHandle>;
}

const OVERSCAN = 4;

export function VirtualList({
  count,
  estimateSize,
  renderItem,
  handle,
  ...attributes
}: VirtualListProps) {
  const scrollElement = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser is read in render on purpose: it decides what to render.
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({
    count,
    getScrollElement: () => scrollElement.current,
    estimateSize,
    overscan: OVERSCAN,
  });

  useImperativeHandle(
    handle,
    () => ({
      element: () => scrollElement.current,
      offsetOf: (index) => virtualizer.measurementsCache[index]?.start ?? 0,
      totalSize: () => virtualizer.getTotalSize(),
      scrollToIndex: (index, align = "auto") => virtualizer.scrollToIndex(index, { align }),
    }),
    [virtualizer],
  );

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollElement} {...attributes}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        <div
          role="presentation"
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            right: 0,
            transform: `translateY(${items[0]?.start ?? 0}px)`,
          }}
        >
          {items.map((item) => renderItem(item.index, virtualizer.measureElement))}
        </div>
      </div>
    </div>
  );
}
