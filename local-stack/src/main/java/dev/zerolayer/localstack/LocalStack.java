package dev.zerolayer.localstack;

import dev.zerolayer.kafka.embedded.PortInUseException;
import dev.zerolayer.localstack.balancer.RouterBalancer;
import dev.zerolayer.localstack.cli.StackArguments;
import dev.zerolayer.localstack.cli.StackOptions;
import dev.zerolayer.localstack.cli.UsageException;
import dev.zerolayer.localstack.credentials.Credentials;
import dev.zerolayer.localstack.data.DataDirectory;
import dev.zerolayer.localstack.health.HealthProbe;
import dev.zerolayer.localstack.health.ReadinessWaiter;
import dev.zerolayer.localstack.health.ReadyLine;
import dev.zerolayer.localstack.health.ServiceExitedException;
import dev.zerolayer.localstack.kafka.LocalKafka;
import dev.zerolayer.localstack.ports.NamedPort;
import dev.zerolayer.localstack.ports.PortCheck;
import dev.zerolayer.localstack.process.ChildSupervisor;
import dev.zerolayer.localstack.process.LogTail;
import dev.zerolayer.localstack.process.RunnableJar;
import dev.zerolayer.localstack.process.ServiceProcess;
import dev.zerolayer.localstack.process.ServiceSpec;
import dev.zerolayer.localstack.process.StackServices;
import dev.zerolayer.platform.topics.BrokerUnavailableException;
import dev.zerolayer.platform.topics.TopicPolicyMismatchException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One command runs everything: nothing starts unless every port is free, then the broker, the topics and the services
 * start in that order, and exactly one READY line reaches stdout once every service is UP. A service that dies stops the
 * stack, except one of several replicas, which is started again while the others serve.
 */
public final class LocalStack {

    public static final int EXIT_FAILED = 1;
    public static final int EXIT_CONFLICT = 2;
    public static final int EXIT_USAGE = 64;
    /** Twelve JVMs of --replicas 2 with two router warm-ups on two cores took up to 3 min in CI: 5 min to be ready. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(300);
    /** How many synthetic requests each router's warm-up sends ({@code zerolayer.router.warm-up.requests}). */
    static final String ROUTER_WARM_UP_REQUESTS = "ZEROLAYER_ROUTER_WARMUP_REQUESTS";
    private static final Duration CTRL_C_GRACE = Duration.ofSeconds(2);
    private static final int TAIL_LINES = 40;

    private final StackOptions options;
    private final List<ServiceSpec> services;
    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;

    public LocalStack(StackOptions options, List<ServiceSpec> services, Map<String, String> env, PrintStream out,
            PrintStream err) {
        this.options = options;
        this.services = List.copyOf(services);
        this.env = Map.copyOf(env);
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(launch(List.of(args), options -> StackServices.without(options.routerPort(), options.skip(),
                options.replicas(), options.dataDir())));
    }

    /** Parses {@code args} and runs the stack with the services {@code services} picks; returns the exit code. */
    public static int launch(List<String> args, Function<StackOptions, List<ServiceSpec>> services) {
        StackOptions options;
        List<ServiceSpec> chosen;
        try {
            options = StackArguments.parse(args, Path.of("").toAbsolutePath());
            chosen = services.apply(options);
        } catch (UsageException e) {
            System.err.println("zerolayer: " + e.getMessage());
            System.err.println(StackArguments.USAGE);
            return EXIT_USAGE;
        }
        if (options.help()) {
            System.out.println(StackArguments.USAGE);
            return 0;
        }
        return new LocalStack(options, chosen, System.getenv(), System.out, System.err).run();
    }

    /** Runs the stack; returns only when it fails to start or a service dies (or the JVM is stopping). */
    public int run() {
        List<String> clashes = PortCheck.clashes(ports());
        List<NamedPort> busy = PortCheck.busy(ports());
        if (!clashes.isEmpty() || !busy.isEmpty()) {
            clashes.forEach(clash -> err.println("zerolayer: " + clash));
            busy.forEach(port -> err.println("zerolayer: " + port.inUseMessage()));
            return EXIT_CONFLICT;
        }
        if (balanced() && RouterBalancer.binary().isEmpty()) {
            err.println("zerolayer: --replicas runs the routers behind HAProxy, which is not installed "
                    + "(Debian: apt-get install haproxy)");
            return EXIT_FAILED;
        }
        List<String> missing = services.stream().map(s -> RunnableJar.problem(s.jar(options.root())))
                .flatMap(Optional::stream).toList();
        if (!missing.isEmpty()) {
            missing.forEach(problem -> err.println("zerolayer: " + problem));
            err.println("zerolayer: build first: ./mvnw -B -DskipTests install (./zerolayer up builds what is missing)");
            return EXIT_FAILED;
        }
        try {
            DataDirectory.prepare(options.dataDir(), options.fresh());
        } catch (RuntimeException e) {
            err.println("zerolayer: " + e.getMessage());
            return EXIT_FAILED;
        }
        Credentials credentials = Credentials.resolve(env, new SecureRandom());
        credentials.generatedNotices().forEach(err::println);
        ChildSupervisor supervisor = new ChildSupervisor(options.root(), options.logsDir(),
                childEnvironment(credentials), ProcessHandle.current().pid());
        StackShutdown shutdown = new StackShutdown(supervisor, err);
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "zerolayer-stop"));
        try {
            return start(supervisor, shutdown);
        } catch (RuntimeException e) {
            if (supervisor.awaitStopping(e instanceof ServiceExitedException ? CTRL_C_GRACE : Duration.ZERO)) {
                return 0;
            }
            return report(e);
        }
    }

    private int start(ChildSupervisor supervisor, StackShutdown shutdown) {
        err.println("zerolayer: starting Kafka on 127.0.0.1:" + options.kafkaPort() + " (data in "
                + options.kafkaDir() + ")");
        long t0 = System.nanoTime();
        LocalKafka kafka = LocalKafka.start(options.kafkaDir(), options.kafkaPort());
        shutdown.broker(kafka);
        long t1 = System.nanoTime();
        List<String> created = kafka.provisionTopics();
        long t2 = System.nanoTime();
        err.println("zerolayer: topics ready (" + created.size() + " created); starting " + services.size()
                + " service(s), logs in " + options.logsDir());
        List<ServiceProcess> children = new ArrayList<>();
        for (ServiceSpec spec : services) {
            children.add(supervisor.start(spec));
        }
        List<ServiceSpec> shown = new ArrayList<>(services);
        if (balanced()) {
            ServiceSpec balancer = balancer();
            children.add(supervisor.start(balancer, RouterBalancer.command(RouterBalancer.binary().orElseThrow(),
                    options.dataDir().resolve("balancer"), options.routerPort(), routerReplicaPorts(),
                    options.slowStart())));
            shown.add(0, balancer);
        }
        new ReadinessWaiter(new HealthProbe(), READY_TIMEOUT).awaitAllUp(children);
        long t3 = System.nanoTime();
        out.println(ReadyLine.of(shown, kafka.bootstrapServers()));
        out.flush();
        err.printf("zerolayer: ready in %.1f s (JVM start to READY; broker %.1f s, topics %.1f s, services %.1f s)%n",
                ManagementFactory.getRuntimeMXBean().getUptime() / 1e3, (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                (t3 - t2) / 1e9);
        err.flush();
        while (true) {
            ServiceProcess dead = firstExit(children);
            if (!replica(dead.spec()) || supervisor.stopping()) {
                throw new ServiceExitedException(dead, "while the stack was running");
            }
            // one of several replicas: the others serve meanwhile, as they would for a pod Kubernetes restarts
            err.println("zerolayer: " + dead.spec().key() + " exited with " + dead.process().exitValue()
                    + "; starting it again");
            err.flush();
            children.set(children.indexOf(dead), supervisor.start(dead.spec()));
        }
    }

    /** A replica of a service that runs several (not the balancer, not a service that runs once). */
    private static boolean replica(ServiceSpec spec) {
        return !spec.logName().equals(spec.module());
    }

    private int report(RuntimeException e) {
        if (e instanceof ServiceExitedException exited) {
            err.println("zerolayer: " + e.getMessage() + "; last lines of " + exited.service().log() + ":");
            LogTail.of(exited.service().log(), TAIL_LINES).forEach(line -> err.println("  | " + line));
            return EXIT_FAILED;
        }
        err.println("zerolayer: " + e.getMessage());
        boolean conflict = e instanceof PortInUseException || e instanceof TopicPolicyMismatchException;
        if (!conflict && !(e instanceof BrokerUnavailableException)) {
            e.printStackTrace(err);
        }
        return conflict ? EXIT_CONFLICT : EXIT_FAILED;
    }

    /** Several routers run, so HAProxy takes the router port in front of them. */
    private boolean balanced() {
        return routerReplicaPorts().size() > 1;
    }

    private List<Integer> routerReplicaPorts() {
        return services.stream().filter(s -> s.module().equals("router-service")).map(ServiceSpec::port).toList();
    }

    /** The balancer as the stack shows it: {@code router=} on the router port. */
    private ServiceSpec balancer() {
        return new ServiceSpec("haproxy", "router", options.routerPort());
    }

    private List<NamedPort> ports() {
        List<NamedPort> ports = new ArrayList<>();
        services.forEach(s -> ports.add(new NamedPort(s.port(), s.module())));
        if (balanced()) {
            ports.add(new NamedPort(options.routerPort(), "haproxy (router balancer)"));
        }
        ports.add(new NamedPort(options.kafkaPort(), "kafka"));
        ports.add(new NamedPort(options.controllerPort(), "kafka controller"));
        return ports;
    }

    private Map<String, String> childEnvironment(Credentials credentials) {
        Map<String, String> childEnv = childEnvironment(credentials, options.kafkaPort(), options.dataDir());
        if (options.tokenizer() != null) {
            // two of the simulator's haiku nodes speak OpenAI's API and play vLLM serving this model
            childEnv.put("ZEROLAYER_SIMULATOR_TOKENIZER", options.tokenizer());
            childEnv.put("ZEROLAYER_SIMULATOR_HAIKU_PROTOCOLS", "anthropic,openai,openai");
        }
        return childEnv;
    }

    /**
     * What every child's environment gets on top of the launcher's: the credentials, the broker on {@code kafkaPort}
     * and the state a service keeps beside Kafka, under {@code dataDir} (public: tests that run a service themselves
     * next to a launched stack give it the same).
     */
    public static Map<String, String> childEnvironment(Credentials credentials, int kafkaPort, Path dataDir) {
        Map<String, String> childEnv = new HashMap<>(credentials.asEnvironment());
        childEnv.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + kafkaPort);
        // state a service keeps beside Kafka lives in the stack's data directory (wiped with --fresh)
        childEnv.put("ZEROLAYER_FALLBACK_DATA_DIR", dataDir.resolve("fallback").toString());
        // a router here shares two cores with everything else: a tenth of the production warm-up (C1, the stack's
        // default JIT, has compiled the request path by then), unless the caller's environment says otherwise
        if (System.getenv(ROUTER_WARM_UP_REQUESTS) == null) {
            childEnv.put(ROUTER_WARM_UP_REQUESTS, "5000");
        }
        return childEnv;
    }

    private static ServiceProcess firstExit(List<ServiceProcess> children) {
        CompletableFuture<?>[] exits = children.stream().map(c -> c.process().onExit())
                .toArray(CompletableFuture[]::new);
        CompletableFuture.anyOf(exits).join();
        return children.stream().filter(c -> !c.alive()).findFirst().orElseThrow();
    }
}
