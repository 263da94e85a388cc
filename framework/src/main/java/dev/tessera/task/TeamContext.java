package dev.tessera.task;

import java.util.function.DoubleBinaryOperator;
import java.util.function.IntConsumer;

/**
 * What one member of a team sees inside {@link Team#region}: its id, the team size, and
 * the constructs of an OpenMP {@code parallel} block. Worksharing loops, {@link #single}
 * and {@link #reduce} end with a barrier, as in OpenMP; {@link #master} does not. Every
 * member must meet the same constructs in the same order.
 */
public final class TeamContext {

    private final Team team;
    private final int id;
    private boolean sense;
    private int singles;

    TeamContext(Team team, int id) {
        this.team = team;
        this.id = id;
    }

    /**
     * Resets the member's per-region state before a region starts. The member's barrier sense
     * is taken from the barrier, not reset to false: after a region with an odd number of
     * barriers the barrier's sense is flipped, and a member starting from false would pass
     * the next region's first barrier without waiting.
     */
    void reset() {
        sense = team.barrier().currentSense();
        singles = 0;
    }

    /** This member's id, 0 .. size-1; member 0 is the thread that started the region. */
    public int id() {
        return id;
    }

    /** Number of members. */
    public int size() {
        return team.size();
    }

    /** Waits until every member has reached this barrier. */
    public void barrier() {
        sense = team.barrier().await(sense, team::resetLoopCounter);
    }

    /** Runs {@code body} on exactly one member (the first to arrive), then a barrier. */
    public void single(Runnable body) {
        int construct = singles++;
        if (team.claimSingle(construct)) {
            body.run();
        }
        barrier();
    }

    /** Runs {@code body} on member 0 only (the thread that may communicate under FUNNELED); no barrier. */
    public void master(Runnable body) {
        if (id == 0) {
            body.run();
        }
    }

    /** Worksharing loop with the static schedule, then a barrier. */
    public void parallelFor(int lo, int hi, IntConsumer body) {
        parallelFor(lo, hi, Schedule.STATIC, body);
    }

    /** Worksharing loop, then a barrier. */
    public void parallelFor(int lo, int hi, Schedule schedule, IntConsumer body) {
        parallelForRange(lo, hi, schedule, Team.eachIndex(body));
    }

    /** Worksharing loop over chunks, then a barrier. */
    public void parallelForRange(int lo, int hi, Schedule schedule, RangeBody body) {
        team.share(id, lo, hi, schedule, body);
        barrier();
    }

    /**
     * Combines one value from every member with {@code combine}, in member order, and
     * returns the result on every member (OpenMP's reduction clause, for a region).
     */
    public double reduce(double value, DoubleBinaryOperator combine) {
        double[] partials = team.partials();
        partials[id] = value;
        barrier();
        double result = partials[0];
        for (int m = 1; m < partials.length; m++) {
            result = combine.applyAsDouble(result, partials[m]);
        }
        barrier();
        return result;
    }
}
