using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Internals;

/// <summary>Where a created value is stored; the analyzers and the code fixes ask the same question here.</summary>
internal static class Storage
{
    /// <summary>
    /// The local, field or property that <paramref name="value"/> initializes or is assigned to (through implicit
    /// conversions; also <c>_source ??= new ...</c>, which stores it when the variable was null), or null when it goes
    /// anywhere else (an argument, a return, a member access, a discard).
    /// </summary>
    public static ISymbol? Of(IOperation value)
    {
        var (child, parent) = Consumer(value);
        return parent switch
        {
            IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator } => declarator.Symbol,
            IFieldInitializerOperation { InitializedFields.Length: 1 } field => field.InitializedFields[0],
            IPropertyInitializerOperation { InitializedProperties.Length: 1 } property => property.InitializedProperties[0],
            ISimpleAssignmentOperation assignment when ReferenceEquals(assignment.Value, child) => Variable(assignment.Target),
            ICoalesceAssignmentOperation assignment when ReferenceEquals(assignment.Value, child) => Variable(assignment.Target),
            _ => null,
        };
    }

    /// <summary>
    /// The by-value parameter that <paramref name="value"/> is assigned to (<c>source ??= new ...</c>,
    /// <c>source = new ...</c>), or null: such a parameter holds the value as a local would, since the caller's variable is
    /// not written.
    /// </summary>
    public static IParameterSymbol? ByValueParameterOf(IOperation value)
    {
        var (child, parent) = Consumer(value);
        return parent is ISimpleAssignmentOperation or ICoalesceAssignmentOperation &&
               parent is IAssignmentOperation { Target: IParameterReferenceOperation { Parameter: { RefKind: RefKind.None } parameter } } assignment &&
               ReferenceEquals(assignment.Value, child)
            ? parameter
            : null;
    }

    // What consumes the value, through implicit conversions: the outermost conversion (or the value) and its parent.
    private static (IOperation Child, IOperation? Parent) Consumer(IOperation value)
    {
        var child = value;
        var parent = value.Parent;
        while (parent is IConversionOperation)
        {
            child = parent;
            parent = parent.Parent;
        }

        return (child, parent);
    }

    // The local, field or property an assignment writes; null for anything else (an element, a deconstruction).
    private static ISymbol? Variable(IOperation target) => target switch
    {
        ILocalReferenceOperation local => local.Local,
        IFieldReferenceOperation field => field.Field,
        IPropertyReferenceOperation property => property.Property,
        _ => null,
    };

    /// <summary>
    /// The value an assignment stores through <paramref name="identifier"/> (<c>x = v</c>, <c>this.x = v</c>,
    /// <c>batch.x = v</c>, <c>x ??= v</c>): its right-hand side, or null when the name is not an assignment's target. Read from syntax, for
    /// scans that name-filter identifiers before binding them.
    /// </summary>
    public static ExpressionSyntax? AssignedValue(IdentifierNameSyntax identifier)
    {
        // `this.x = v` and `other.x = v` alike: the receiver says which instance, not which storage.
        SyntaxNode target = identifier.Parent is MemberAccessExpressionSyntax access && access.Name == identifier ? access : identifier;
        return target.Parent is AssignmentExpressionSyntax assignment && assignment.Left == target ? assignment.Right : null;
    }

    /// <summary>The declared type of a local, field or property; null for anything else.</summary>
    public static ITypeSymbol? TypeOf(ISymbol? storage) => storage switch
    {
        ILocalSymbol local => local.Type,
        IFieldSymbol field => field.Type,
        IPropertySymbol property => property.Type,
        _ => null,
    };
}
