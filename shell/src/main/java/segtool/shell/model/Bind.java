package segtool.shell.model;

import java.lang.reflect.Field;
import picocli.CommandLine;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;

/**
 * One field of a command or mixin object, read and written for picocli's model by {@link Models}: what picocli's own
 * field binding does, without reading the field's annotations. A {@link Field} by name costs one lookup in the
 * class's reflection data; an annotation read costs a generated proxy class per annotation type.
 */
public final class Bind implements IGetter, ISetter {
    private final Object owner;
    private final Field field;

    private Bind(Object owner, Field field) {
        this.owner = owner;
        this.field = field;
    }

    /** The field {@code name} declared by {@code declaring}, on {@code owner}. */
    public static Bind field(Object owner, Class<?> declaring, String name) {
        try {
            Field f = declaring.getDeclaredField(name);
            f.setAccessible(true);
            return new Bind(owner, f);
        } catch (NoSuchFieldException e) {
            throw new CommandLine.InitializationException("no field " + name + " in " + declaring.getName());
        }
    }

    /** The mixin object in the field {@code name}: its value, or (when null) a new one from the factory, stored. */
    public static Object mixin(Object owner, Class<?> declaring, String name, Class<?> type,
            CommandLine.IFactory factory) throws Exception {
        Bind b = field(owner, declaring, name);
        Object value = b.get();
        if (value == null) {
            value = factory.create(type);
            b.set(value);
        }
        return value;
    }

    /**
     * A new object of the class {@code name}, through its no-argument constructor, accessible or not: for a class
     * the generated code cannot name (picocli's package-private mixin).
     */
    public static Object instance(String name) throws ReflectiveOperationException {
        java.lang.reflect.Constructor<?> c = Class.forName(name).getDeclaredConstructor();
        c.setAccessible(true);
        return c.newInstance();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get() {
        try {
            return (T) field.get(owner);
        } catch (IllegalAccessException e) {
            throw new CommandLine.PicocliException("cannot read " + field, e);
        }
    }

    @Override
    public <T> T set(T value) {
        T old = get();
        try {
            field.set(owner, value);
        } catch (IllegalAccessException e) {
            throw new CommandLine.PicocliException("cannot write " + field, e);
        }
        return old;
    }

    @Override
    public String toString() {
        return "field " + field.toGenericString();
    }
}
