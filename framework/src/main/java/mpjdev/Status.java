package mpjdev;

/** The status of a device-level operation, as MPJ Express's public fields give it (a plain record of values). */
public class Status {

    public int source;
    public int tag;
    public int index;
    public int count;
    public int countInBytes;
    public int numEls;
    public mpjbuf.Type type;

    public Status() {
    }

    public Status(int source, int tag, int index) {
        this.source = source;
        this.tag = tag;
        this.index = index;
    }

    public Status(int source, int tag, int index, mpjbuf.Type type, int numEls) {
        this(source, tag, index);
        this.type = type;
        this.numEls = numEls;
    }
}
