package dev.zerolayer.cache.session;

import java.time.Duration;

/**
 * How sessions are tracked.
 *
 * @param prefixBlocks     leading blocks kept of each prompt
 * @param recentPrefixes   prompts kept per session (newest last)
 * @param similarity       two consecutive prompts are similar when their shared leading blocks are at least this share
 *                         of the shorter prompt's blocks ...
 * @param minSharedBlocks  ... and at least this many blocks
 * @param prewarmStreak    consecutive similar prompts that trigger a prewarm command
 * @param prewarmInterval  at most one prewarm command per session within this time
 * @param prewarmMaxBlocks blocks named in one prewarm command
 * @param moveAfter        consecutive requests served elsewhere (while the sticky node could still serve) that move
 *                         the sticky node to where they went
 * @param idleTtl          a session unseen this long is forgotten (tombstoned)
 * @param maxSessions      sessions kept; past it the least recently seen are forgotten
 */
public record SessionRules(int prefixBlocks, int recentPrefixes, double similarity, int minSharedBlocks,
        int prewarmStreak, Duration prewarmInterval, int prewarmMaxBlocks, int moveAfter, Duration idleTtl,
        int maxSessions) {

    public static SessionRules defaults() {
        return new SessionRules(64, 4, 0.5, 1, 3, Duration.ofSeconds(60), 64, 2, Duration.ofHours(1), 100_000);
    }
}
