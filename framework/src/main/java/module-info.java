/**
 * Tessera's framework: communicators and collectives ({@code dev.tessera.comm}), the device
 * SPI for device writers ({@code dev.tessera.device}), threads inside a rank
 * ({@code dev.tessera.task}), distributed-grid helpers ({@code dev.tessera.grid}), the
 * entry point ({@code dev.tessera.runtime}), in-JVM jobs and the {@code tessera} command
 * ({@code dev.tessera.launch}) and the mpiJava 1.2 facade ({@code mpi}, with MPJ Express's
 * {@code mpjbuf} and {@code mpjdev} packages that its programs import).
 *
 * <p>The concrete devices, the process bootstrap and the runtime's access to communicator
 * internals are not exported: programs bind to the API above, and devices are found by
 * name through their providers. Programs on the class path (as {@code tessera run -cp}
 * starts them) see the same API; the module boundary is enforced for modular programs.
 */
module dev.tessera.framework {
    requires info.picocli;
    requires java.logging;

    exports dev.tessera;
    exports dev.tessera.comm;
    exports dev.tessera.device;
    exports dev.tessera.grid;
    exports dev.tessera.launch;
    exports dev.tessera.runtime;
    exports dev.tessera.task;
    exports mpi;
    exports mpjbuf;
    exports mpjdev;

    opens dev.tessera.launch to info.picocli;

    uses dev.tessera.device.DeviceProvider;
    uses dev.tessera.launch.InfoSection;

    provides dev.tessera.device.DeviceProvider with
            dev.tessera.device.smp.SmpProvider,
            dev.tessera.device.shm.ShmProvider,
            dev.tessera.device.tcp.TcpProvider,
            dev.tessera.device.auto.AutoProvider,
            dev.tessera.device.mpi.MpiProvider;
}
