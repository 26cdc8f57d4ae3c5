using System;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;

namespace CoarseTimers.Analyzers.Tests.Infrastructure;

/// <summary>
/// Reference assemblies for test compilations, read from the Microsoft.NETCore.App.Ref package that restore put in
/// the global packages folder. <see cref="ReferenceAssemblies"/> is left empty so the testing library never tries to
/// download a reference pack at test time.
/// </summary>
internal static class TestReferences
{
    public static readonly ReferenceAssemblies None = new("net8.0");

    public static readonly ImmutableArray<MetadataReference> Net80 = LoadNet80();

    public static readonly MetadataReference Runtime = MetadataReference.CreateFromFile(typeof(CoarseTimers.CoarseTimer).Assembly.Location);

    private static ImmutableArray<MetadataReference> LoadNet80()
    {
        var directory = typeof(TestReferences).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "TestReferenceAssemblies").Value!;
        if (!Directory.Exists(directory))
        {
            throw new InvalidOperationException($"Reference assemblies not found at '{directory}'. Run 'dotnet restore' first.");
        }

        return Directory.EnumerateFiles(directory, "*.dll")
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
            .ToImmutableArray();
    }
}
