using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>One message type of a generated model (build/generated, written by tools/typegen).</summary>
    public sealed class TypedMessage
    {
        public string TypeExpr;
        public Type Root;
        public Func<object, object> FromCanon; // Canon's form (types applied) -> the generated classes
        public Func<object, object> ToCanon; // and back, for the check
        public Func<object, object> Expect; // a canonical item as the model holds it (float32 narrowed), in place; null: as read
        public Action<BinaryWriter, object> Write; // the handwritten row's layout; null when it has none
        public Func<BinaryReader, object> Read;
        public string HandwrittenNotApplicable;
        public Type[] KnownTypes = Type.EmptyTypes; // runtime types an `any` value may hold
    }

    /// <summary>The generated model of one types file: a built-in family or a registered user dataset.</summary>
    public sealed class TypedModel
    {
        public string Source; // the family folder or the user dataset's name
        public bool Builtin;
        public string Sha256; // of the types file the model was generated from
        public Dictionary<string, TypedMessage> Messages; // by dataset name; "" for a user dataset's one message
    }

    /// <summary>Finds the generated model of a dataset (Serbench.Generated.Index, written by the build).</summary>
    public static class TypedModels
    {
        public const string NotBuilt = "typed model not built for this dataset's types: run `serbench build -r dotnet`";

        public static IEnumerable<string> BuiltinNames
        {
            get { return Serbench.Generated.Index.All.Where(m => m.Builtin).SelectMany(m => m.Messages.Keys); }
        }

        public static TypedMessage Builtin(string dataset)
        {
            foreach (TypedModel m in Serbench.Generated.Index.All)
            {
                TypedMessage message;
                if (m.Builtin && m.Messages.TryGetValue(dataset, out message))
                    return message;
            }
            return null;
        }

        /// <summary>The model generated from exactly this types file (by sha256), or null.</summary>
        public static TypedMessage User(string name, string typesPath)
        {
            string sha;
            using (var h = SHA256.Create())
                sha = string.Concat(h.ComputeHash(File.ReadAllBytes(typesPath)).Select(b => b.ToString("x2")));
            foreach (TypedModel m in Serbench.Generated.Index.All)
            {
                TypedMessage message;
                if (!m.Builtin && m.Sha256 == sha && (m.Messages.TryGetValue(name, out message) || m.Messages.TryGetValue("", out message)))
                    return message;
            }
            return null;
        }

        /// <summary>A user dataset's spec with its items converted to the generated classes.</summary>
        public static DatasetSpec UserSpec(DatasetSpec tree, TypedMessage message)
        {
            UserTypes types = tree.Types;
            string expr = tree.TypeExpr;
            return new DatasetSpec
            {
                Name = tree.Name, Stream = tree.Stream, User = true, Types = types, TypeExpr = expr, Typed = message,
                RootType = message.Root, Canonical = message.ToCanon,
                Build = t => message.FromCanon(types.Canonical((JToken)t, expr)),
            };
        }
    }
}
