/* Drops one file on an X window the way a file manager does (the XDND protocol, version 5:
 * https://freedesktop.org/wiki/Specifications/XDND/), so a test can drop a file on the real
 * window under Xvfb; xdotool has no drag-and-drop of its own.
 * Usage: xdnd_drop WINDOW_ID FILE   (exit 0 once the window says it finished the drop) */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Display* dpy;
static Window src, target;
static Atom aware, enter, position, status, drop, finished, selection, uri_list, copy;

static void send(Atom type, long l1, long l2, long l3, long l4) {
  XEvent e;
  memset(&e, 0, sizeof e);
  e.xclient.type = ClientMessage;
  e.xclient.window = target;
  e.xclient.message_type = type;
  e.xclient.format = 32;
  e.xclient.data.l[0] = (long)src;
  e.xclient.data.l[1] = l1, e.xclient.data.l[2] = l2, e.xclient.data.l[3] = l3, e.xclient.data.l[4] = l4;
  XSendEvent(dpy, target, False, NoEventMask, &e);
  XFlush(dpy);
}

/* Hands the file's URI to whoever asks for the drop's selection. */
static void answer(const XSelectionRequestEvent* r, const char* uri) {
  XEvent reply;
  memset(&reply, 0, sizeof reply);
  reply.xselection.type = SelectionNotify;
  reply.xselection.requestor = r->requestor;
  reply.xselection.selection = r->selection;
  reply.xselection.target = r->target;
  reply.xselection.time = r->time;
  reply.xselection.property = None;
  if (r->target == uri_list) {
    XChangeProperty(dpy, r->requestor, r->property, uri_list, 8, PropModeReplace, (const unsigned char*)uri,
                    (int)strlen(uri));
    reply.xselection.property = r->property;
  }
  XSendEvent(dpy, r->requestor, False, NoEventMask, &reply);
  XFlush(dpy);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: xdnd_drop WINDOW_ID FILE\n");
    return 2;
  }
  dpy = XOpenDisplay(NULL);
  if (!dpy) {
    fprintf(stderr, "xdnd_drop: no X display\n");
    return 1;
  }
  target = (Window)strtoul(argv[1], NULL, 0);
  char* path = realpath(argv[2], NULL);
  if (!path) {
    fprintf(stderr, "xdnd_drop: no file %s\n", argv[2]);
    return 1;
  }
  char uri[4200];
  snprintf(uri, sizeof uri, "file://%s\r\n", path);
  free(path);
#define ATOM(name) XInternAtom(dpy, name, False)
  aware = ATOM("XdndAware"), enter = ATOM("XdndEnter"), position = ATOM("XdndPosition"), status = ATOM("XdndStatus");
  drop = ATOM("XdndDrop"), finished = ATOM("XdndFinished"), selection = ATOM("XdndSelection");
  uri_list = ATOM("text/uri-list"), copy = ATOM("XdndActionCopy");
  Atom type;
  int format;
  unsigned long count, left;
  unsigned char* data = NULL;
  if (XGetWindowProperty(dpy, target, aware, 0, 1, False, AnyPropertyType, &type, &format, &count, &left, &data) !=
          Success ||
      count == 0) {
    fprintf(stderr, "xdnd_drop: window %s takes no drops (no XdndAware)\n", argv[1]);
    return 1;
  }
  XFree(data);
  src = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0);
  XSetSelectionOwner(dpy, selection, src, CurrentTime);
  XWindowAttributes at;
  XGetWindowAttributes(dpy, target, &at);
  int x = 0, y = 0;
  Window child;
  XTranslateCoordinates(dpy, target, DefaultRootWindow(dpy), at.width / 2, at.height / 2, &x, &y, &child);
  send(enter, 5L << 24, (long)uri_list, None, None);
  send(position, 0, ((long)x << 16) | y, CurrentTime, (long)copy);
  const time_t until = time(NULL) + 10;
  int dropped = 0;
  while (time(NULL) < until) {
    if (!XPending(dpy)) {
      struct timespec nap = {0, 20 * 1000 * 1000};
      nanosleep(&nap, NULL);
      continue;
    }
    XEvent e;
    XNextEvent(dpy, &e);
    if (e.type == SelectionRequest) answer(&e.xselectionrequest, uri);
    if (e.type != ClientMessage) continue;
    if (e.xclient.message_type == status && !dropped) {
      if (!(e.xclient.data.l[1] & 1)) {
        fprintf(stderr, "xdnd_drop: the window refused the drop\n");
        return 1;
      }
      send(drop, 0, CurrentTime, 0, 0);
      dropped = 1;
    } else if (e.xclient.message_type == finished) {
      return 0;
    }
  }
  fprintf(stderr, "xdnd_drop: no answer from the window in 10 s\n");
  return 1;
}
