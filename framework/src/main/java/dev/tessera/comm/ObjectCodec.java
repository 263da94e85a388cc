package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/**
 * Serializes objects for object messages. Deserialization resolves classes through the
 * thread's context class loader: under the smp device each rank has its own loader for
 * application classes, and the receiving rank must get its own copy of the class.
 */
final class ObjectCodec {

    private ObjectCodec() {
    }

    static byte[] encode(Object value, String where) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.BUFFER, where + ": cannot serialize " + describe(value) + ": " + e, e);
        }
        return bytes.toByteArray();
    }

    static Object decode(byte[] data, String where) {
        try (ObjectInputStream in = new ContextClassLoaderInput(new ByteArrayInputStream(data))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new TesseraException(ErrorClass.BUFFER, where + ": cannot deserialize object message: " + e, e);
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : "an object of " + value.getClass().getName();
    }

    private static final class ContextClassLoaderInput extends ObjectInputStream {
        ContextClassLoaderInput(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution (primitives, bootstrap classes)
                }
            }
            return super.resolveClass(desc);
        }
    }
}
