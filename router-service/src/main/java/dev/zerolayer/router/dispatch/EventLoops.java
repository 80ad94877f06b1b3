package dev.zerolayer.router.dispatch;

import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

/**
 * A request stays on the event loop it arrived on: this says which of the server's loops the calling thread is, and
 * gives that loop as the scheduler of the request's timers (set and cancelled on their own loop, they wake no other
 * thread); any other thread is loop -1 and gets Reactor's parallel scheduler. It carries the loop resources, so that
 * the upstream client runs on the same loops.
 */
public final class EventLoops {

    private final LoopResources resources;
    private final List<EventExecutor> loops = new ArrayList<>();
    private final List<Scheduler> timers = new ArrayList<>();
    private final ThreadLocal<Integer> current = ThreadLocal.withInitial(this::find);

    /** @param resources the HTTP server's loop resources; {@code null}: none (every caller is loop -1) */
    public EventLoops(LoopResources resources) {
        this.resources = resources;
        if (resources != null) {
            int index = 0;
            for (EventExecutor loop : resources.onServer(LoopResources.DEFAULT_NATIVE)) {
                loops.add(loop);
                timers.add(Schedulers.fromExecutorService(loop, "zerolayer-loop-timers-" + index++));
            }
        }
    }

    public static EventLoops none() {
        return new EventLoops(null);
    }

    /** The loop resources the server's loops come from; {@code null} when there are none. */
    public LoopResources resources() {
        return resources;
    }

    /** How many loops there are. */
    public int size() {
        return loops.size();
    }

    /** The calling thread's loop, 0 … size()-1, or -1 when it is not one of them. */
    public int current() {
        return current.get();
    }

    /** The scheduler for a timer of work running on the calling thread: its own loop, else the parallel scheduler. */
    public Scheduler timers() {
        int loop = current();
        return loop < 0 ? Schedulers.parallel() : timers.get(loop);
    }

    private int find() {
        for (int i = 0; i < loops.size(); i++) {
            if (loops.get(i).inEventLoop()) {
                return i;
            }
        }
        return -1;
    }
}
